// Administration → Stores → "Immediate confirmation": the policy, what the law says about it in plain words,
// and what it would have done over the last 7 days.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PolicyForm } from "@/components/admin/immediate-confirm/policy-form";
import { requirePageUser } from "@/lib/auth/require-user";
import { db } from "@/lib/db/prisma";
import { findImmediateConfirmPolicy } from "@/lib/immediate-confirm/find-immediate-confirm-policy";
import { POLICY_STATEMENT } from "@/lib/immediate-confirm/policy-rules";
import { simulatePolicy } from "@/lib/immediate-confirm/simulate-policy";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Immediate confirmation" };

export default async function ImmediateConfirmPage({ params }: { params: Promise<{ storeId: string }> }) {
  const { storeId } = await params;
  await requirePageUser(`/admin/stores/${encodeURIComponent(storeId)}/immediate-confirm`);
  const store = await db().store.findUnique({ where: { id: storeId } });
  if (!store) notFound();
  const policy = await findImmediateConfirmPolicy(storeId);
  const pharmacists = await db().user.findMany({
    where: { role: "pharmacist", disabledAt: null },
    select: { id: true, name: true },
    orderBy: { name: "asc" },
  });
  const sim = await simulatePolicy({ storeId, allowListedAllergies: policy.allowListedAllergies });
  return (
    <div className="space-y-4">
      <h1 className="text-lg font-semibold">
        Immediate confirmation: {store.name} ({store.npi})
      </h1>
      <p>
        Policy v{policy.version}, {policy.enabled ? "on" : "off"}.
      </p>
      <section aria-labelledby="law" className="max-w-3xl space-y-1 text-sm">
        <h2 id="law" className="font-semibold">
          Before you turn it on
        </h2>
        {POLICY_STATEMENT.map((s) => (
          <p key={s}>{s}</p>
        ))}
      </section>
      <section aria-labelledby="sim" className="text-sm">
        <h2 id="sim" className="font-semibold">
          What it would have done
        </h2>
        <p data-testid="simulation">
          Last 7 days: {sim.qualified} of {sim.total} would have qualified.
        </p>
        {sim.reasons.length > 0 && (
          <ul className="list-disc pl-5">
            {sim.reasons.map((r) => (
              <li key={r.reason}>
                {r.count}: {r.reason}
              </li>
            ))}
          </ul>
        )}
        <p className="text-slate-600">
          Judged on each request alone: duplicate therapy, an earlier rejection and the hourly cap are checked at intake
          only.
        </p>
      </section>
      <PolicyForm storeId={storeId} policy={policy} pharmacists={pharmacists} />
    </div>
  );
}
