// Download of an approved transfer's FHIR R4 Bundle, for loading into the pharmacy's dispensing system by
// hand (the integration feed does it automatically). A plain link: the browser saves the file the route
// names; the route audits the download.
import { buttonClass } from "@/components/ui/button";

export function FhirDownload({ referenceID }: { referenceID: string }) {
  return (
    <a
      href={`/api/transfers/${encodeURIComponent(referenceID)}/fhir`}
      download={`${referenceID}.fhir.json`}
      className={buttonClass("secondary", "ml-2 print:hidden")}
    >
      Download FHIR bundle
    </a>
  );
}
