/** The client refuses a body it would drop: a GET or DELETE with a body fails at the call (and does not type-check). */
import { describe, expect, it } from "vitest";
import { apiRequest } from "./client.ts";
import { call } from "./operations.ts";

describe("apiRequest", () => {
  it("refuses a DELETE or GET given a body instead of sending the call without it", async () => {
    // @ts-expect-error a DELETE takes no body
    await expect(apiRequest("DELETE", "/contacts/bulk", { body: { ids: [1, 2] } })).rejects.toThrow(/DELETE \/contacts\/bulk: a DELETE carries no body/);
    // @ts-expect-error a GET takes no body
    await expect(apiRequest("GET", "/contacts", { body: { q: "x" } })).rejects.toThrow(/a GET carries no body/);
  });

  it("types the manifest's DELETE operations without a body", () => {
    // Type-level only: never called.
    const typed = () => {
      // @ts-expect-error no body on a DELETE operation
      void call("DELETE /api/tags/{id}", { params: { id: 1 }, body: { force: true } });
      void call("DELETE /api/tags/{id}", { params: { id: 1 } });
    };
    expect(typeof typed).toBe("function");
  });
});
