/** The typed client turns an operation key and its params into the call the API expects. */
import { describe, expect, it } from "vitest";
import { resolveOperation } from "./operations.ts";

describe("resolveOperation", () => {
  it("fills path params (encoded) and drops the /api prefix the client adds itself", () => {
    expect(resolveOperation("PUT /api/users/{id}", { id: 7 })).toEqual(["PUT", "/users/7"]);
    expect(resolveOperation("GET /api/media/{messageId}", { messageId: "3EB0/AB" })).toEqual(["GET", "/media/3EB0%2FAB"]);
    expect(resolveOperation("GET /api/queue")).toEqual(["GET", "/queue"]);
  });

  it("refuses a call that misses a path param instead of requesting a wrong path", () => {
    expect(() => resolveOperation("GET /api/tickets/u/{uuid}", {})).toThrow(/missing path parameter uuid/);
  });
});
