import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-2xl font-semibold">Prescription transfers</h1>
      <p className="mt-2 text-slate-600">Transfers sent to this pharmacy by sending pharmacies, for pharmacist review.</p>
      <ul className="mt-6 space-y-2">
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
