/** Users as the API returns them (docs/product/users.md#fields) and the form the dialog sends. */
import type { QueueRef } from "../../api/session.ts";

export interface User {
  id: number;
  companyId: number;
  name: string;
  email: string;
  profile: "admin" | "user" | "supervisor";
  super?: boolean;
  online?: boolean;
  allTicket?: "enabled" | "desabled";
  whatsappId?: number | null;
  whatsapp?: { id: number; name: string } | null;
  queueIds?: number[];
  queues?: QueueRef[];
}

export interface UsersPage {
  users: User[];
  count: number;
  hasMore: boolean;
}

/** POST /api/users and PUT /api/users/{id} body; an empty password on edit keeps the current one. */
export interface UserForm {
  name: string;
  email: string;
  password?: string;
  profile: "admin" | "supervisor" | "user";
  allTicket: "enabled" | "desabled";
  whatsappId: number | null;
  queueIds: number[];
}
