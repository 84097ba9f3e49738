import { describe, expect, it } from "vitest";
import { substanceKeyOf } from "@/lib/drugs/substance-key";

describe("substanceKeyOf", () => {
  it("gives a brand and its generic the same key, whatever the strength and form", () => {
    expect(substanceKeyOf("Zestril 10 mg")).toBe("lisinopril");
    expect(substanceKeyOf("Lisinopril 10 mg tablet")).toBe("lisinopril");
    expect(substanceKeyOf("LISINOPRIL 40MG")).toBe("lisinopril");
  });

  it("keeps combinations apart from their parts", () => {
    expect(substanceKeyOf("Zestoretic 20-12.5 mg")).toBe("hydrochlorothiazide+lisinopril");
    expect(substanceKeyOf("Lisinopril 10 mg")).not.toBe(substanceKeyOf("Zestoretic 20-12.5 mg"));
    expect(substanceKeyOf("Percocet 5/325")).toBe("acetaminophen+oxycodone");
  });

  it("tells different substances apart", () => {
    expect(substanceKeyOf("Atorvastatin 20 mg")).not.toBe(substanceKeyOf("Rosuvastatin 20 mg"));
  });

  it("falls back to the words of a name the tables do not know", () => {
    expect(substanceKeyOf("Zyxoflam 20 mg tablet")).toBe("?zyxoflam");
    expect(substanceKeyOf("Zyxoflam 5 mg capsule")).toBe("?zyxoflam");
    expect(substanceKeyOf("10 mg tablet")).toBeNull();
  });
});
