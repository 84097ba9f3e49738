// notFound() in a dashboard page (an admin's unknown partner, say): inside the dashboard's frame.
import { DeadEnd } from "@/components/errors/dead-end";

export default function DashboardNotFound() {
  return (
    <DeadEnd title="Not found" ways={[{ href: "/transfers", label: "Go to the transfer queue" }]} standalone={false}>
      <p>What this address points to does not exist, or no longer does.</p>
    </DeadEnd>
  );
}
