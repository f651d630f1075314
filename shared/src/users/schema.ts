/**
 * User entity and API payloads (attendance.md §3 User, §5 validation; issue 2 §4).
 * `allTicket` is spelt `enabled | desabled` as in the spec.
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
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserItem = z.infer<typeof UserItem>;

/** What the API returns for a user (no hash, no token version); `queues` are `{id,name,color}`. */
export type PublicUser = Omit<UserItem, "passwordHash" | "tokenVersion"> & {
  queues: { id: number; name: string; color: string }[];
  whatsapp?: { id: number; name: string } | null;
};

const name = z.string().trim().min(2, "Too Short!").max(50, "Too Long!");
const password = z.string().min(5, "Too Short!").max(50, "Too Long!");
const email = z.string().trim().email("Invalid email").max(200);

/** POST /api/users */
export const CreateUserBody = z.object({
  name,
  email,
  password,
  profile: Profile.default("user"),
  allTicket: z.enum(["enabled", "desabled"]).default("desabled"),
  whatsappId: zId.nullable().optional(),
  queueIds: z.array(zId).max(100).default([]),
});

/** PUT /api/users/{id}: every field optional; a non-admin may change only name and password of themselves. */
export const UpdateUserBody = CreateUserBody.partial().extend({ password: password.optional().or(z.literal("")) });
