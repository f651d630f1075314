/**
 * Where `npm start` keeps its data: `DATA_DIR` when given, otherwise `<repo>/.data/<port>`, so two
 * stacks started side by side with only `PORT=` never share (or delete) each other's DynamoDB, S3 and secret.
 */
import { isAbsolute, join, resolve } from "node:path";

/** The data folder of a stack on `port` (absolute); `dataDirEnv` (the `DATA_DIR` variable) wins when non-empty. */
export function localDataDir(repoRoot: string, port: number, dataDirEnv?: string): string {
  if (dataDirEnv?.trim()) return isAbsolute(dataDirEnv) ? dataDirEnv : resolve(dataDirEnv);
  return join(repoRoot, ".data", String(port));
}
