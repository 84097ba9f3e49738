// A certificate authority of the test's own, made with the openssl command line as an operator would make a
// private CA: one CA, and a server certificate per host name for nginx, the identity provider and the
// callback receiver. Processes trust it through NODE_EXTRA_CA_CERTS (Node) or its SPKI hash (Chromium).
import { execFileSync } from "node:child_process";
import { createHash, X509Certificate } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

export type TestCertificate = { certFile: string; keyFile: string; cert: string; key: string };
export type TestCa = {
  caFile: string;
  ca: string;
  /** base64 SHA-256 of the CA's SubjectPublicKeyInfo, as Chromium's --ignore-certificate-errors-spki-list takes it. */
  spkiHash: string;
  /** A server certificate for these host names (the first is its common name), signed by the CA. */
  issue(name: string, hosts: string[]): TestCertificate;
};

function openssl(args: string[], cwd: string): void {
  execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
}

export function spkiHashOf(pem: string): string {
  const der = new X509Certificate(pem).publicKey.export({ type: "spki", format: "der" });
  return createHash("sha256").update(der).digest("base64");
}

export function makeTestCa(dir: string): TestCa {
  const caKey = path.join(dir, "ca.key");
  const caFile = path.join(dir, "ca.crt");
  openssl(
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      caKey,
      "-out",
      caFile,
      "-days",
      "2",
      "-subj",
      "/CN=Rehearsal Test CA",
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
    ],
    dir,
  );
  const ca = readFileSync(caFile, "utf8");
  return {
    caFile,
    ca,
    spkiHash: spkiHashOf(ca),
    issue(name, hosts) {
      const keyFile = path.join(dir, `${name}.key`);
      const csr = path.join(dir, `${name}.csr`);
      const certFile = path.join(dir, `${name}.crt`);
      const ext = path.join(dir, `${name}.ext`);
      writeFileSync(
        ext,
        [
          "basicConstraints=CA:FALSE",
          "keyUsage=critical,digitalSignature,keyEncipherment",
          "extendedKeyUsage=serverAuth",
          `subjectAltName=${hosts.map((h) => `DNS:${h}`).join(",")}`,
          "",
        ].join("\n"),
      );
      openssl(
        ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", csr, "-subj", `/CN=${hosts[0]}`],
        dir,
      );
      openssl(
        [
          "x509",
          "-req",
          "-in",
          csr,
          "-CA",
          caFile,
          "-CAkey",
          caKey,
          "-CAcreateserial",
          "-out",
          certFile,
          "-days",
          "2",
          "-sha256",
          "-extfile",
          ext,
        ],
        dir,
      );
      const cert = readFileSync(certFile, "utf8");
      return { certFile, keyFile, cert: cert + ca, key: readFileSync(keyFile, "utf8") };
    },
  };
}
