import { describe, expect, it } from "vitest";
import { audienceOf, isMalformedPath, malformedPathAnswer } from "@/lib/http/malformed-path";

describe("malformed paths", () => {
  it.each([
    ["/transfers/%ZZ", true],
    ["/transfers/%", true],
    ["/%E0%A4%A", true], // a cut-off UTF-8 sequence
    ["/api/transfers/%C0%AF", true], // an overlong encoding of "/"
    ["/transfers/trf_123", false],
    ["/transfers/a%2Fb", false],
    ["/transfers?q=%ZZ", false], // the query is the page's business
    ["/docs#%ZZ", false],
  ])("%s malformed: %s", (url, malformed) => {
    expect(isMalformedPath(url)).toBe(malformed);
  });

  it("answers each caller in its own shape", () => {
    expect(audienceOf("/v1/transfer/%ZZ")).toBe("transfer-api");
    expect(audienceOf("/v1")).toBe("transfer-api");
    expect(audienceOf("/api/%ZZ")).toBe("json-api");
    expect(audienceOf("/oauth/token%ZZ")).toBe("json-api");
    expect(audienceOf("/v1x/%ZZ")).toBe("page");
    expect(audienceOf("/apis/%ZZ")).toBe("page");
    expect(audienceOf("/transfers/%ZZ")).toBe("page");

    const problem = malformedPathAnswer("json-api");
    expect(problem.status).toBe(400);
    expect(problem.headers["content-type"]).toContain("application/problem+json");
    expect(JSON.parse(problem.body)).toMatchObject({ status: 400, type: "urn:rx-transfer:problem:malformed_path" });
    const page = malformedPathAnswer("page");
    expect(page.status).toBe(400);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("<h1>This address is not valid</h1>");
  });
});
