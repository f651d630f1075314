/**
 * The API Gateway WebSocket event shape our `$connect` / `$disconnect` / `$default` handlers read
 * (a subset of `APIGatewayProxyWebsocketEventV2` plus `queryStringParameters`, which `$connect` carries).
 */
export interface WsEvent {
  requestContext: {
    connectionId: string;
    routeKey: string;
    eventType: "CONNECT" | "DISCONNECT" | "MESSAGE";
    domainName?: string;
    stage?: string;
    requestId?: string;
    connectedAt?: number;
    /** `$disconnect` only: WebSocket close code, e.g. 1001 when the client goes away. */
    disconnectStatusCode?: number;
    disconnectReason?: string;
  };
  queryStringParameters?: Record<string, string | undefined> | null;
  headers?: Record<string, string | undefined>;
  body?: string | null;
  isBase64Encoded?: boolean;
}

/** What a WebSocket route handler returns; on `$connect` a non-2xx status refuses the handshake. */
export interface WsResult {
  statusCode: number;
  body?: string;
}
