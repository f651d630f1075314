/** The personal-data calls: start an export or an erasure (each answers its job), and the finished export's link. */
import { useMutation } from "@tanstack/react-query";
import { call } from "../../api/operations.ts";

export function useStartExport() {
  return useMutation({ mutationFn: (contactId: number) => call("POST /api/contacts/{id}/personal-data/export", { params: { id: contactId } }) });
}

export function useStartErase() {
  return useMutation({ mutationFn: (contactId: number) => call("POST /api/contacts/{id}/personal-data/erase", { params: { id: contactId } }) });
}

/** The finished export's short-lived link. */
export const exportLink = (contactId: number, jobId: string) => call("GET /api/contacts/{id}/personal-data/export/{jobId}", { params: { id: contactId, jobId } });
