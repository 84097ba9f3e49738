// next-auth's own endpoints: CSRF token, credentials callback, sign-out, session.
import { handlers } from "@/auth";

export const dynamic = "force-dynamic";

export const { GET, POST } = handlers;
