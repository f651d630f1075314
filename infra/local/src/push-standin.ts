/**
 * The push service on one machine (docs/product/push.md#one-machine): `web-push-testing`, a stand-in that speaks the
 * Web Push protocol (RFC 8030 / 8291 / VAPID), bound to 127.0.0.1 on a free port. It plays both ends a browser's
 * push service has: `POST /subscribe` `{applicationServerKey}` makes a subscription (endpoint and keys, as a
 * browser's `PushSubscription.toJSON()`, plus its `clientHash`), the endpoint takes the encrypted pushes (checking the
 * VAPID signature, answering 201, or 410 once `POST /expire-subscription/<clientHash>` expired it), and
 * `POST /get-notifications` `{clientHash}` answers the pushes received, decrypted. A dev dependency of the local
 * stack only: never deployed.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export interface PushStandin {
  /** `http://127.0.0.1:<port>` */
  url: string;
  stop(): Promise<void>;
}

interface TestingServer {
  _app: { listen(port: number, host: string, cb: () => void): Server };
  setRequestHandlers(): void;
}

/** Starts the stand-in on 127.0.0.1 and a free port. */
export async function startPushStandin(): Promise<PushStandin> {
  const PushApiModel = require("web-push-testing/src/PushApiModel.js").PushApiModel as new () => { notifyUrl: string };
  const WebPushTestingServer = require("web-push-testing/src/server.js") as new (model: unknown, port: number) => TestingServer;
  const model = new PushApiModel();
  const standin = new WebPushTestingServer(model, 0);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = standin._app.listen(0, "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  model.notifyUrl = `${url}/notify/`;
  standin.setRequestHandlers();
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
