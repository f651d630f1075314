/**
 * User entity and API payloads (docs/product/users.md#fields).
 * `allTicket` is spelt `enabled | desabled`, the stored values of the old system.
 */
import { z } from "zod";
import { zId } from "../common.ts";

export const Profile = z.enum(["admin", "user", "supervisor"]);
export type Profile = z.infer<typeof Profile>;

/** The stored user item (minus keys). `passwordHash` never leaves the repository layer. */
export const UserItem = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  email: z.string(),
  passwordHash: z.string(),
  profile: Profile,
  super: z.boolean().default(false),
  online: z.boolean().default(false),
  allTicket: z.enum(["enabled", "desabled"]).default("desabled"),
  whatsappId: z.number().int().nullable().default(null),
  queueIds: z.array(z.number().int()).default([]),
  /** Incremented to revoke every refresh token and access token of the user (single login, logout). */
  tokenVersion: z.number().int().default(0),
  /** `jti` of the one refresh token currently valid for the user (rotated on every refresh). */
  refreshJti: z.string().optional(),
  /** The refresh `jti` rotated away last, still accepted until `prevRefreshUntil` (epoch ms): two tabs refreshing at once. */
  prevRefreshJti: z.string().optional(),
  prevRefreshUntil: z.number().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserItem = z.infer<typeof UserItem>;

/** What the API returns for a user (no hash, no token version); `queues` are `{id,name,color}`. */
export type PublicUser = Omit<UserItem, "passwordHash" | "tokenVersion" | "refreshJti" | "prevRefreshJti" | "prevRefreshUntil"> & {
  queues: { id: number; name: string; color: string }[];
  whatsapp?: { id: number; name: string } | null;
};

/** zod's message for a missing field, as the API words it ("Required"). */
const required = (iss: { input?: unknown }) => (iss.input === undefined || iss.input === null ? "Required" : "Invalid input");
const name = z.string({ error: required }).trim().min(2, "Too Short!").max(50, "Too Long!");
const password = z.string({ error: required }).min(5, "Too Short!").max(50, "Too Long!");
const email = z.string({ error: required }).trim().email("Invalid email").max(200);
const allTicket = z.enum(["enabled", "desabled"]);
/** Default connection: a connection id, or null/"" for none. */
const whatsappId = z.union([z.literal("").transform(() => null), zId.nullable()]);
const queueIds = z.array(zId).max(100);

/** POST /api/users */
export const CreateUserBody = z.object({
  name,
  email,
  password,
  profile: Profile.default("user"),
  allTicket: allTicket.default("desabled"),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.default([]),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

/**
 * PUT /api/users/{id}: every field optional (absent = unchanged; no defaults are applied), `password: ""` = unchanged.
 * A non-admin may change only their own name and password (checked in the service).
 */
export const UpdateUserBody = z.object({
  name: name.optional(),
  email: email.optional(),
  password: password.optional().or(z.literal("")),
  /** The caller's current password: required when users change their own password (docs/product/users.md#passwords). */
  oldPassword: z.string().max(200).optional(),
  profile: Profile.optional(),
  allTicket: allTicket.optional(),
  whatsappId: whatsappId.optional(),
  queueIds: queueIds.optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;
