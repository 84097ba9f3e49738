"use client";
// After a change to a partner, both its own page and the partners list are stale.
import { useQueryClient } from "@tanstack/react-query";

export function usePartnerRefresh(partnerId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ["admin", "partner", partnerId] }),
      queryClient.invalidateQueries({ queryKey: ["admin", "partners"] }),
    ]);
}
