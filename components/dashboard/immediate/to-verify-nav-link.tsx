// The header's "To verify (N)": transfers CONFIRMED automatically that no pharmacist has verified yet. Shown
// only while there are some (a store without the policy never has any).
import Link from "next/link";
import { countToVerify } from "@/lib/immediate-confirm/list-to-verify";

export async function ToVerifyNavLink() {
  const count = await countToVerify();
  if (count === 0) return null;
  return (
    <Link
      href="/transfers/to-verify"
      prefetch={false}
      className="rounded px-2 py-1 hover:bg-slate-700"
      aria-label={`Confirmed automatically, to verify: ${count}`}
    >
      To verify ({count})
    </Link>
  );
}
