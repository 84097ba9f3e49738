import Link from "next/link";
import { redirect } from "next/navigation";
import { currentUser } from "@/lib/auth/require-user";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

export default async function Home() {
  if (await currentUser()) redirect("/transfers");
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-2xl font-semibold">Prescription transfers</h1>
      <p className="mt-2 text-slate-600">
        Transfers sent to {env().PHARMACY_NAME} by sending pharmacies, for pharmacist review.
      </p>
      <ul className="mt-6 space-y-2">
        <li>
          <Link className="font-medium text-blue-700 underline" href="/login" prefetch={false}>
            Sign in to the review dashboard
          </Link>
        </li>
        <li>
          <Link className="text-blue-700 underline" href="/docs">
            API documentation for sending pharmacies
          </Link>
        </li>
        <li>
          <a className="text-blue-700 underline" href="/v1/openapi.json">
            OpenAPI 3.1 document
          </a>
        </li>
      </ul>
    </main>
  );
}
