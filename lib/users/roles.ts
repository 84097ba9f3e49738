// A dashboard user's roles, as the database defines them (Prisma's generated enum, which has no server
// imports and so is safe in client components too). The access policy, sign-in, the user operations and
// the admin forms all take them from here.
import { UserRole } from "@/generated/prisma/enums";

export { UserRole };

/** Every role, in the order the admin screens offer them. */
export const USER_ROLES = Object.values(UserRole) as [UserRole, ...UserRole[]];
