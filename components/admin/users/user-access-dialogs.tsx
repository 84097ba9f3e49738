"use client";
// The users screen's confirmed actions on a user's access: disable (enable needs no question), end every
// session, reset two-factor. Ending one's own sessions signs this browser out too.
import { apiFetch } from "@/components/admin/api";
import { ConfirmDialog } from "@/components/admin/confirm-dialog";
import { useConfirmedAction, type ConfirmedAction } from "@/components/admin/use-confirmed-action";
import { useUsersRefresh, type UserRow } from "@/components/admin/users/user-row";

type Ended = { sessionsEnded: number };

function signedOutHere() {
  window.location.assign(new URL("/login?reason=signed_out", window.location.origin).toString());
}

export function useUserAccessActions(currentUserId: string, onDone: (message: string) => void) {
  const refresh = useUsersRefresh();
  const disable = useConfirmedAction({
    run: ({ user, disabled }: { user: UserRow; disabled: boolean }) =>
      apiFetch(`/api/admin/users/${user.userId}`, { method: "PATCH", body: { disabled } }),
    onDone: async (_data, { user, disabled }) => {
      onDone(
        disabled ? `${user.email} is disabled and signed out.` : `${user.email} is enabled and can sign in again.`,
      );
      await refresh();
    },
  });
  const endSessions = useConfirmedAction({
    run: (user: UserRow) => apiFetch<Ended>(`/api/admin/users/${user.userId}/sessions`, { method: "DELETE" }),
    onDone: async (result, user) => {
      if (user.userId === currentUserId) return signedOutHere();
      onDone(
        `${user.email}: ${result.sessionsEnded} open session${result.sessionsEnded === 1 ? "" : "s"} ended. They can sign in again.`,
      );
      await refresh();
    },
  });
  const resetTwoFactor = useConfirmedAction({
    run: (user: UserRow) => apiFetch<Ended>(`/api/admin/users/${user.userId}/two-factor`, { method: "DELETE" }),
    onDone: async (_result, user) => {
      if (user.userId === currentUserId) return signedOutHere();
      onDone(
        `${user.email}: two-factor sign-in reset and every session ended. They set it up again at their next sign-in.`,
      );
      await refresh();
    },
  });
  return { disable, endSessions, resetTwoFactor };
}

export type UserAccessActions = ReturnType<typeof useUserAccessActions>;

export function UserAccessDialogs({ actions, currentUserId }: { actions: UserAccessActions; currentUserId: string }) {
  const { disable, endSessions, resetTwoFactor } = actions;
  const isSelf = (a: ConfirmedAction<UserRow>) => a.target?.userId === currentUserId;
  return (
    <>
      <ConfirmDialog
        {...endSessions.dialog}
        title={`End every session of ${endSessions.target?.email ?? ""}?`}
        description={
          isSelf(endSessions)
            ? "This is your own account: you will be signed out here too, and on every other computer."
            : "They are signed out at once on every computer and browser. Nothing else changes: they can sign in again (disable them to keep them out)."
        }
        confirmLabel="End sessions"
        pendingLabel="Ending…"
      />
      <ConfirmDialog
        {...resetTwoFactor.dialog}
        title={`Reset two-factor sign-in of ${resetTwoFactor.target?.email ?? ""}?`}
        description="Their authenticator and recovery codes stop working and every session of theirs ends at once. They sign in with their password and set up two-factor again (at once if the policy requires it)."
        confirmLabel="Reset two-factor"
        pendingLabel="Resetting…"
      />
      <ConfirmDialog
        {...disable.dialog}
        title={`Disable ${disable.target?.user.email ?? ""}?`}
        description={
          disable.target?.user.userId === currentUserId
            ? "This is your own account: you will be signed out at once and cannot sign in until another admin enables you."
            : "They are signed out at once and cannot sign in until an admin enables them again. Their records stay."
        }
        confirmLabel="Disable user"
        pendingLabel="Disabling…"
      />
    </>
  );
}
