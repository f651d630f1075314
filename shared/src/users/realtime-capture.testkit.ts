/**
 * Test kit (used only by tests): a stand-in for the API Gateway `@connections` endpoint that records every frame
 * `publish` posts, plus registration of fake sockets in a company room. Lets integration tests assert the realtime
 * events a user would see, through the real `publish` code path.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { resetConfig } from "../config.ts";
import { ddb, tableName } from "../db/client.ts";
import { keys } from "../db/keys.ts";
import { forgetSocketListing, resetRealtimeClient } from "../realtime/publish.ts";

export interface CapturedFrame {
  connectionId: string;
  event: string;
  data: any;
}

/** Starts the capture server and points `WS_MANAGEMENT_ENDPOINT` at it. Call `stop()` in `afterAll`. */
export async function startRealtimeCapture(): Promise<{ frames: CapturedFrame[]; clear: () => void; stop: () => Promise<void> }> {
  const frames: CapturedFrame[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const m = decodeURIComponent(req.url ?? "").match(/@connections\/([^/?]+)/);
      if (m && req.method === "POST") {
        const frame = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        frames.push({ connectionId: m[1], event: frame.event, data: frame.data });
      }
      res.statusCode = 200;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  process.env.WS_MANAGEMENT_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resetConfig();
  resetRealtimeClient();
  return {
    frames,
    clear: () => void frames.splice(0),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Registers a fake socket of `userId` in the company room (as `$connect` would) and returns its connection id. */
export async function registerSocket(
  companyId: number,
  user: { id: number; profile: string; super?: boolean; queueIds?: number[]; allTicket?: string },
): Promise<string> {
  const connectionId = `conn-${companyId}-${user.id}-${Math.random().toString(36).slice(2, 8)}`;
  await ddb().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.wsRoomMember(companyId, "company", connectionId),
        ...keys.wsPlatformIndex(connectionId),
        connectionId,
        userId: user.id,
        profile: user.profile,
        super: user.super ?? false,
        queueIds: user.queueIds ?? [],
        allTicket: user.allTicket ?? "desabled",
        rooms: [],
        expiresAt: Math.floor(Date.now() / 1000) + 3600,
      },
    }),
  );
  forgetSocketListing(companyId);
  return connectionId;
}
