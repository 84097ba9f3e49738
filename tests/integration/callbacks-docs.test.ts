// The receiver the docs page publishes for senders, run as it is printed (a separate Node process), must
// accept our signed callbacks, refuse tampered or stale ones, and answer 2xx to a repeat.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postCallback } from "@/lib/callbacks/post-callback";
import { webhookHeaders } from "@/lib/callbacks/signature";
import { VERIFY_EXAMPLE } from "@/lib/callbacks/verify-example";
import { freePort } from "@/tests/support/server";

const secret = `whsec_${randomBytes(32).toString("base64")}`;
let dir: string;
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  expect(VERIFY_EXAMPLE).toContain(".listen(8080)");
  const port = await freePort();
  dir = await mkdtemp(path.join(os.tmpdir(), "rx-docs-example-"));
  const file = path.join(dir, "receiver.mjs");
  await writeFile(
    file,
    VERIFY_EXAMPLE.replace(".listen(8080)", `.listen(${port}, "127.0.0.1", () => console.log("listening"))`),
  );
  child = spawn(process.execPath, [file], {
    env: { ...process.env, WEBHOOK_SECRET: secret },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
    child.once("exit", (code) => reject(new Error(`the docs example exited (${code})`)));
  });
  url = `http://127.0.0.1:${port}/rx-callbacks`;
});

afterAll(async () => {
  child?.kill("SIGKILL");
  if (dir) await rm(dir, { recursive: true, force: true });
});

function deliver(opts: { body: string; id?: string; timestamp?: number; secrets?: string[]; tamper?: boolean }) {
  const id = opts.id ?? "msg_docsExample0001";
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const headers = webhookHeaders({ id, timestamp, body: opts.body, secrets: opts.secrets ?? [secret] });
  return postCallback({
    url,
    body: opts.tamper ? opts.body.replace("CONFIRMED", "ERROR") : opts.body,
    headers: { "content-type": "application/json", ...headers },
    timeoutMs: 5000,
    allowPrivate: true,
    allowInsecureHttp: true,
  });
}

describe("the signature check published in /docs", () => {
  const body = JSON.stringify({
    requestID: "req-1",
    metadata: {
      responseType: "CONFIRMED",
      referenceID: "trf_1",
      responseID: "rsp_1",
      responseTimestamp: "2026-11-22T12:00:00Z",
    },
  });

  it("accepts a callback we signed, and a repeat of it", async () => {
    expect((await deliver({ body })).statusCode).toBe(204);
    expect((await deliver({ body })).statusCode).toBe(204);
  });

  it("accepts a callback carrying two signatures during a rotation", async () => {
    const other = `whsec_${randomBytes(32).toString("base64")}`;
    expect((await deliver({ body, secrets: [other, secret] })).statusCode).toBe(204);
  });

  it("refuses a changed body, another secret and a stale timestamp", async () => {
    expect((await deliver({ body, tamper: true })).statusCode).toBe(401);
    expect((await deliver({ body, secrets: [`whsec_${randomBytes(32).toString("base64")}`] })).statusCode).toBe(401);
    expect((await deliver({ body, timestamp: Math.floor(Date.now() / 1000) - 600 })).statusCode).toBe(401);
  });
});
