// An address that matches no page (or a notFound() outside the dashboard): says so, and the ways back.
import type { Metadata } from "next";
import { DeadEnd, QUEUE_AND_SIGN_IN } from "@/components/errors/dead-end";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <DeadEnd title="Page not found" ways={QUEUE_AND_SIGN_IN} standalone>
      <p>There is no page at this address. The link may be mistyped, or what it pointed to has moved.</p>
    </DeadEnd>
  );
}
