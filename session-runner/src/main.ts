/**
 * Cloud entry of the session runner (Fargate; docs/architecture.md#7-the-session-runner-session-runner): starts a leased runner task ({@link startCloudRunner}) and
 * turns SIGTERM/SIGINT into a graceful stop (no new commands, in-flight ones finish, sockets end without logout,
 * leases released) well inside ECS' stop timeout.
 */
// The composition root: every domain-event listener (this is an entry point).
import "@atende/shared/events/wiring";
import { log } from "@atende/shared/log";
import { startCloudRunner } from "./cloud.ts";

startCloudRunner()
  .then((task) => {
    const shutdown = async (signal: string) => {
      log("info", "session runner stopping", { signal, owner: task.owner });
      await task.stop();
      log("info", "session runner stopped", { owner: task.owner });
      process.exit(0);
    };
    process.once("SIGTERM", () => void shutdown("SIGTERM"));
    process.once("SIGINT", () => void shutdown("SIGINT"));
  })
  .catch((err) => {
    log("error", "session runner failed to start", { err });
    process.exit(1);
  });
