/**
 * The media port's rules without S3: keys under the company and the entity, another company's or entity's key refused,
 * a kind's declared types and size limit, the stored-name rule, and no copy out of another company's media.
 */
import { describe, expect, it } from "vitest";
import { AppError } from "../errors.ts";
import { MEDIA_SIZE_LIMITS } from "../storage/media.ts";
import { attachmentKey, checkAttachment, copyIntoMessage, isAttachmentOf } from "./attachments.ts";
import { defineAttachmentKind, storedName } from "./kinds.ts";

const images = defineAttachmentKind({ folder: "logos", types: ["image/png", "image/svg+xml", "image/x-icon"], typeMessage: "Use somente arquivos em formato PNG, ICO ou SVG!", maxBytes: 1024 });
const anything = defineAttachmentKind({ folder: "notes-test", fileName: (n) => n.replace(/\s/g, "_") });

const fieldsOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return { code: (err as AppError).code, ...(err as AppError).data };
  }
  return null;
};

describe("attachment kinds", () => {
  it("keys an entity's file under the company, the kind's folder and the entity, and refuses any other key", () => {
    const key = attachmentKey(images, 7, 3, "Logo Final.PNG");
    expect(key).toMatch(/^media\/7\/logos\/3\/[0-9a-f-]{36}\.png$/);
    expect(isAttachmentOf(images, 7, 3, key)).toBe(true);
    expect(isAttachmentOf(images, 8, 3, key)).toBe(false);
    expect(isAttachmentOf(images, 7, 4, key)).toBe(false);
    expect(isAttachmentOf(anything, 7, 3, key)).toBe(false);
    expect(isAttachmentOf(images, 7, 3, "media/7/logos/3/../../../8/logos/1/x.png")).toBe(false);
    expect(isAttachmentOf(images, 7, 3, "media/7/logos/30/x.png")).toBe(false);
  });

  it("applies a kind's types and size, and the outbound limit of the type when the kind declares none", () => {
    expect(fieldsOf(() => checkAttachment(images, { contentType: "image/png", size: 1024 }))).toBeNull();
    expect(fieldsOf(() => checkAttachment(images, { contentType: "image/jpeg", size: 10 }))).toEqual({
      code: "ERR_VALIDATION",
      fields: [{ path: "file", message: "Use somente arquivos em formato PNG, ICO ou SVG!" }],
    });
    expect(fieldsOf(() => checkAttachment(images, { contentType: "image/png", size: 1025 }))).toMatchObject({ fields: [{ path: "size" }] });
    expect(fieldsOf(() => checkAttachment(anything, { contentType: "video/mp4", size: MEDIA_SIZE_LIMITS.video }))).toBeNull();
    expect(fieldsOf(() => checkAttachment(anything, { contentType: "video/mp4", size: MEDIA_SIZE_LIMITS.video + 1 }))).toMatchObject({ fields: [{ path: "size" }] });
    expect(storedName(anything, "tabela de preços.pdf")).toBe("tabela_de_preços.pdf");
    expect(storedName(images, "a b.png")).toBe("a b.png");
  });

  it("never copies another company's object into a ticket", async () => {
    await expect(copyIntoMessage(7, 1, "MSG1", { key: "media/8/quick-messages/1/x.png", name: "x.png", size: 1, mime: "image/png" })).rejects.toMatchObject({ code: "ERR_NOT_FOUND" });
    await expect(copyIntoMessage(7, 1, "MSG1", { key: "media/7/../8/quick-messages/1/x.png", name: "x.png", size: 1, mime: "image/png" })).rejects.toMatchObject({ code: "ERR_NOT_FOUND" });
  });

  it("refuses a folder that is not a plain name", () => {
    expect(() => defineAttachmentKind({ folder: "../uploads" })).toThrow(/plain name/);
  });
});
