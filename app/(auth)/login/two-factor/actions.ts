"use server";
// The second sign-in step's server action: the code goes to lib/auth/two-factor/verify-second-factor.ts;
// success continues to the page asked for, a refusal comes back as one clear message.
import { redirect } from "next/navigation";
import { loginUrl, requireSessionAllowingSecondFactor } from "@/lib/auth/require-user";
import { safeCallbackPath } from "@/lib/auth/safe-callback";
import { actionClientAddress } from "@/lib/auth/two-factor/action-context";
import { secondFactorMessage } from "@/lib/auth/two-factor/code-messages";
import { verifySecondFactor } from "@/lib/auth/two-factor/verify-second-factor";

export type CodeState = { error?: string; retryAt?: string };

export async function verifyCodeAction(_previous: CodeState, form: FormData): Promise<CodeState> {
  const callbackUrl = safeCallbackPath(form.get("callbackUrl"));
  const session = await requireSessionAllowingSecondFactor();
  if (!session) redirect(loginUrl(callbackUrl));
  if (session.secondFactor !== "verify") redirect(callbackUrl);
  const code = form.get("code");
  if (typeof code !== "string" || !code.trim())
    return { error: "Enter the 6-digit code from your authenticator app, or a recovery code." };
  const outcome = await verifySecondFactor({
    userId: session.user.id,
    sessionId: session.sessionId,
    code,
    clientAddress: await actionClientAddress(),
  });
  if (outcome.ok) redirect(callbackUrl);
  if (outcome.reason === "expired_sign_in") redirect(loginUrl(callbackUrl, "expired"));
  return {
    error: secondFactorMessage(outcome),
    retryAt: outcome.reason === "locked" ? outcome.retryAt?.toISOString() : undefined,
  };
}
