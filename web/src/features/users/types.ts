/** Users as the contract describes them (`shared/src/users/contract.ts`): the record, a page, the form body. */
import type { BodyOf, ResponseOf } from "../../api/operations.ts";

/** A user as the API returns it. */
export type User = ResponseOf<"GET /api/users/{id}">;
/** `GET /api/users` answer. */
export type UsersPage = ResponseOf<"GET /api/users">;
/** POST /api/users and PUT /api/users/{id} body; an empty password on edit keeps the current one. */
export type UserForm = Omit<BodyOf<"POST /api/users">, "password"> & { password?: string };
