// A store as the stores screen shows it, and the query it keeps fresh.
import { useQueryClient } from "@tanstack/react-query";
import type { StoreAlertSettings } from "@/lib/alerts/alert-settings";
import type { StoreRules } from "@/lib/stores/store-rules";

export type StoreRow = {
  storeId: string;
  name: string;
  npi: string;
  dea: string | null;
  address: unknown;
  configured: boolean;
} & StoreRules &
  StoreAlertSettings;

export function useStoresRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ["admin", "stores"] });
}
