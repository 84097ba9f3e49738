import type { Metadata } from "next";
import { GeistMono } from "geist/font/mono";
import { GeistSans } from "geist/font/sans";
import { headers } from "next/headers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Rx Transfer", template: "%s · Rx Transfer" },
  description: "Prescription transfers received from sending pharmacies",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Reading the request makes every page render per request, which the CSP nonce set by proxy.ts needs:
  // Next can only put this request's nonce on the scripts of a page it renders now.
  await headers();
  return (
    <html lang="en" className={`${GeistSans.variable} ${GeistMono.variable}`}>
      <body className="min-h-screen font-sans text-sm">{children}</body>
    </html>
  );
}
