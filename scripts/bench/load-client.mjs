// Load generator for `npm run bench`, run as its own process so the product's CPU accounting (the bench process
// hosting the local stack, and DynamoDB Local) holds none of the client's work. Argument: JSON
// {url, token, warmup, runs: [{total, concurrency}]}. Prints "start <i>" right before run i and "done <i> <json>" after
// it (json: {durations: number[] (ms), seconds}). Every answer must be HTTP 200.
const opts = JSON.parse(process.argv[2]);
const headers = { authorization: `Bearer ${opts.token}` };
async function get() {
  const r = await fetch(opts.url, { headers });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`HTTP ${r.status} ${text.slice(0, 300)}`);
}
async function run(total, concurrency) {
  const durations = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        if (next++ >= total) return;
        const s = performance.now();
        await get();
        durations.push(performance.now() - s);
      }
    }),
  );
  return { durations, seconds: (performance.now() - t0) / 1000 };
}
const wait = () => new Promise((res) => process.stdin.once("data", res));
try {
  for (let i = 0; i < (opts.warmup ?? 20); i++) await get();
  for (let i = 0; i < opts.runs.length; i++) {
    process.stdout.write(`start ${i}\n`);
    await wait();
    const r = await run(opts.runs[i].total, opts.runs[i].concurrency);
    process.stdout.write(`done ${i} ${JSON.stringify(r)}\n`);
    await wait();
  }
  process.exit(0);
} catch (err) {
  process.stderr.write(String(err?.stack ?? err));
  process.exit(1);
}
