// /robots.txt: nothing here is for search engines (the dashboard holds patient data behind sign-in; the
// partner API and its docs are for registered senders). Public in lib/auth/access-policy.ts.
import type { MetadataRoute } from "next";

export default function robots(): MetadataRoute.Robots {
  return { rules: { userAgent: "*", disallow: "/" } };
}
