"use client";
// The users table, sortable, with each user's actions at the end of the row.
import { SortHeader, useSort } from "@/components/admin/sortable";
import type { UserRow } from "@/components/admin/users/user-row";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { LocalTime } from "@/components/ui/local-time";
import { TABLE_CLASS, TableHead, TD_CLASS, TR_CLASS } from "@/components/ui/table";

const SORT_COLUMNS = {
  name: (u: UserRow) => u.name.toLowerCase(),
  email: (u: UserRow) => u.email,
  role: (u: UserRow) => u.role,
  license: (u: UserRow) => u.licenseNumber,
  status: (u: UserRow) => (u.disabled ? 1 : 0),
  lastLogin: (u: UserRow) => u.lastLoginAt,
};

/** What a row's buttons do; each opens its dialog, except enable. */
export type UserRowActions = {
  changeRole: (u: UserRow) => void;
  setLicense: (u: UserRow) => void;
  resetPassword: (u: UserRow) => void;
  endSessions: (u: UserRow) => void;
  resetTwoFactor: (u: UserRow) => void;
  enable: (u: UserRow) => void;
  disable: (u: UserRow) => void;
};

function Actions({ u, act }: { u: UserRow; act: UserRowActions }) {
  return (
    <span className="inline-flex gap-1">
      <Button onClick={() => act.changeRole(u)}>
        Change role<span className="sr-only"> of {u.email}</span>
      </Button>
      <Button onClick={() => act.setLicense(u)}>
        Licence<span className="sr-only"> number of {u.email}</span>
      </Button>
      <Button onClick={() => act.resetPassword(u)}>
        Reset password<span className="sr-only"> of {u.email}</span>
      </Button>
      <Button onClick={() => act.endSessions(u)}>
        End sessions<span className="sr-only"> of {u.email}</span>
      </Button>
      {u.twoFactor && (
        <Button onClick={() => act.resetTwoFactor(u)}>
          Reset two-factor<span className="sr-only"> of {u.email}</span>
        </Button>
      )}
      {u.disabled ? (
        <Button onClick={() => act.enable(u)}>
          Enable<span className="sr-only"> {u.email}</span>
        </Button>
      ) : (
        <Button variant="danger" onClick={() => act.disable(u)}>
          Disable<span className="sr-only"> {u.email}</span>
        </Button>
      )}
    </span>
  );
}

function UserTableRow({
  u,
  isSelf,
  isLastAdmin,
  now,
  act,
}: {
  u: UserRow;
  isSelf: boolean;
  isLastAdmin: boolean;
  now: number;
  act: UserRowActions;
}) {
  const locked = u.lockedUntil && new Date(u.lockedUntil).getTime() > now;
  const never = <span className="text-slate-500">never</span>;
  return (
    <tr className={TR_CLASS}>
      <td className={TD_CLASS}>
        {u.name}
        {isSelf && <span className="ml-1 text-xs text-slate-500">(you)</span>}
      </td>
      <td className={TD_CLASS}>{u.email}</td>
      <td className={TD_CLASS}>
        {u.role === "admin" ? <Badge tone="violet">Admin</Badge> : <Badge tone="blue">Pharmacist</Badge>}
        {isLastAdmin && <div className="text-xs text-slate-500">the only active admin</div>}
      </td>
      <td className={`${TD_CLASS} font-mono`}>
        {u.licenseNumber ?? <span className="font-sans text-slate-500">none</span>}
      </td>
      <td className={TD_CLASS}>
        {u.disabled ? (
          <Badge tone="red">Disabled</Badge>
        ) : locked ? (
          <Badge tone="amber">Locked out</Badge>
        ) : (
          <Badge tone="green">Active</Badge>
        )}
      </td>
      <td className={TD_CLASS}>{u.lastLoginAt ? <LocalTime iso={u.lastLoginAt} /> : never}</td>
      <td className={TD_CLASS}>
        {u.twoFactor ? <Badge tone="green">On</Badge> : <span className="text-slate-500">off</span>}
      </td>
      <td className={`${TD_CLASS} tabular-nums`}>{u.openSessions}</td>
      <td className={`${TD_CLASS} whitespace-nowrap text-right`}>
        <Actions u={u} act={act} />
      </td>
    </tr>
  );
}

export function UsersTable({
  users,
  currentUserId,
  now,
  act,
}: {
  users: UserRow[];
  currentUserId: string;
  now: number;
  act: UserRowActions;
}) {
  const { sorted, sort, toggle } = useSort(users, SORT_COLUMNS, { key: "name", dir: "ascending" });
  const activeAdmins = users.filter((u) => u.role === "admin" && !u.disabled).length;
  return (
    <table className={TABLE_CLASS}>
      <caption className="sr-only">Dashboard users</caption>
      <TableHead columns={["Two-factor", "Open sessions"]} actions>
        <SortHeader label="Name" column="name" sort={sort} onSort={toggle} />
        <SortHeader label="Email" column="email" sort={sort} onSort={toggle} />
        <SortHeader label="Role" column="role" sort={sort} onSort={toggle} />
        <SortHeader label="Licence number" column="license" sort={sort} onSort={toggle} />
        <SortHeader label="Status" column="status" sort={sort} onSort={toggle} />
        <SortHeader label="Last sign-in" column="lastLogin" sort={sort} onSort={toggle} />
      </TableHead>
      <tbody>
        {sorted.map((u) => (
          <UserTableRow
            key={u.userId}
            u={u}
            isSelf={u.userId === currentUserId}
            isLastAdmin={u.role === "admin" && !u.disabled && activeAdmins === 1}
            now={now}
            act={act}
          />
        ))}
      </tbody>
    </table>
  );
}
