// A dashboard page opened from another site (link, form or frame: Sec-Fetch-Site cross-site) lands here
// instead (lib/auth/require-user.ts): opening a transfer records a view in the audit log, which another
// site must not be able to cause. Following the link below is a navigation from this site, so it opens.
import type { Metadata } from "next";
import { DeadEnd } from "@/components/errors/dead-end";
import { currentUser, loginUrl } from "@/lib/auth/require-user";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { redirect } from "next/navigation";

export const metadata: Metadata = { title: "Continue to the dashboard" };

export default async function ContinuePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const to = safeCallbackPath(typeof params.to === "string" ? params.to : undefined);
  if (!(await currentUser())) redirect(loginUrl(to));
  return (
    <DeadEnd
      title="Opened from another site"
      ways={[
        { href: to, label: `Continue to ${to}` },
        { href: "/transfers", label: "Go to the transfer queue" },
      ]}
      standalone={false}
    >
      <p>
        A link on another site led here. Pages with patient data are opened, and recorded in the audit log, only from
        this dashboard itself: follow the link below if you meant to open it.
      </p>
    </DeadEnd>
  );
}
