// The client address of a server action's request (server actions get no Request object).
import { headers } from "next/headers";
import { clientAddressOf } from "@/lib/http/request-context";

export async function actionClientAddress(): Promise<string | null> {
  return clientAddressOf(new Request("http://localhost/", { headers: await headers() }));
}
