// The licence number printed on the records a pharmacist approves from now on; records already approved
// keep the number they were made with. Audited with the old and new value. No session ends: it grants nothing.
import type { Actor } from "@/lib/audit/actor";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import { db } from "@/lib/db/prisma";
import { DomainError } from "@/lib/errors";
import { normalizeLicenseNumber } from "@/lib/users/user-inputs";
import { inPrismaTx } from "@/lib/db/kysely";
import { lockUserLicense } from "@/lib/users/sql";

/** licenseNumber null or "" clears it. */
export type SetUserLicenseNumberOptions = { userId: string; licenseNumber: string | null; actor: Actor };

export async function setUserLicenseNumber({
  userId,
  licenseNumber,
  actor,
}: SetUserLicenseNumberOptions): Promise<{ userId: string; licenseNumber: string | null }> {
  const license = normalizeLicenseNumber(licenseNumber);
  if (!license.ok) throw new DomainError("invalid_input", license.message);
  await db().$transaction(async (tx) => {
    // Locked, so that the audit record's "from" is the value this change replaced.
    const [user] = await inPrismaTx(tx, lockUserLicense(userId));
    if (!user) throw new DomainError("not_found", `no user ${userId}`);
    if (user.license_number === license.value) return;
    await tx.user.update({ where: { id: userId }, data: { licenseNumber: license.value } });
    await recordAuditEvent(
      {
        actor,
        action: "user.license_changed",
        details: { userId, from: user.license_number, to: license.value },
      },
      tx,
    );
  });
  return { userId, licenseNumber: license.value };
}
