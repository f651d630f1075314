/** Two stacks side by side: each port gets its own data folder unless `DATA_DIR` names one. */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { localDataDir } from "./data-dir.ts";

describe("local data folder", () => {
  it("differs per port and follows DATA_DIR when given", () => {
    expect(localDataDir("/repo", 3000)).toBe("/repo/.data/3000");
    expect(localDataDir("/repo", 4000)).toBe("/repo/.data/4000");
    expect(localDataDir("/repo", 4000, "/srv/atende-b")).toBe("/srv/atende-b");
    expect(localDataDir("/repo", 4000, "mydata")).toBe(resolve("mydata"));
    expect(localDataDir("/repo", 4000, "  ")).toBe("/repo/.data/4000");
  });
});
