// Loads @prisma/schema-engine-wasm (the schema engine compiled to WebAssembly) on Node 20.

import { readFile } from "node:fs/promises";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as bindings from "@prisma/schema-engine-wasm/schema_engine_bg";

/**
 * The engine's panic hook stores the panic message here before the WebAssembly instance traps with
 * a bare "RuntimeError: unreachable"; without it a panic is unreadable. (Same shape as the registry
 * the Prisma CLI installs for its own WASM modules.)
 */
class WasmPanicRegistry {
  message = "";
  get() {
    return this.message;
  }
  set_message(message) {
    this.message = `RuntimeError: ${message}`;
  }
}
globalThis.PRISMA_WASM_PANIC_REGISTRY ??= new WasmPanicRegistry();

export function takePanicMessage() {
  const message = globalThis.PRISMA_WASM_PANIC_REGISTRY.get();
  globalThis.PRISMA_WASM_PANIC_REGISTRY.message = "";
  return message;
}

/**
 * The package's entry point does `import * as wasm from "./schema_engine_bg.wasm"`, which Node 20
 * cannot do without --experimental-wasm-modules. We do by hand what that import would: instantiate
 * the module with the JS glue as its import object, hand the exports to the glue, run its start.
 */
let loaded;
async function loadBindings() {
  loaded ??= (async () => {
    const wasmUrl = new URL("schema_engine_bg.wasm", import.meta.resolve("@prisma/schema-engine-wasm"));
    const { instance } = await WebAssembly.instantiate(await readFile(wasmUrl), {
      "./schema_engine_bg.js": bindings,
    });
    bindings.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return bindings;
  })();
  return loaded;
}

/**
 * @param datamodels [path, content] pairs of the Prisma schema files (or undefined)
 * @param adapterFactory a SqlMigrationAwareDriverAdapterFactory
 * @param onLog receives the engine's log lines
 */
export async function startWasmEngine({ datamodels, adapterFactory, onLog }) {
  const { SchemaEngine } = await loadBindings();
  // The engine expects the factory's methods to return Result objects, not to throw: that is what
  // binding does, and it keeps non-driver JS errors in a registry the engine refers to by id.
  const bound = bindMigrationAwareSqlAdapterFactory(adapterFactory);
  const engine = await SchemaEngine.new({ datamodels }, onLog, bound);
  return { engine, errorRegistry: bound.errorRegistry, version: bindings.version() };
}
