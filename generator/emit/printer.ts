/**
 * The one printer every emitter writes through (after protobuf-es's `GeneratedFile`): code is printed with symbol
 * references, and the printer collects, de-duplicates and orders the imports they need. No emitter writes an import
 * statement. An import is `import type` when every use of it is in a type position.
 *
 * Import order: the `zod` package, then the runtime, then relative modules, each group by specifier; within one
 * statement values come before types, each sorted by code unit (never `localeCompare`, which depends on the locale).
 */

/**
 * The runtime module a symbol of `runtime-symbols.ts` is defined in. Outside the runtime package all of them are
 * imported from its core entry (`packageRuntime`); the runtime's own bindings import the leaf modules relatively.
 */
export type RuntimeEntry = "core" | "method-type" | "zod-helpers" | "tasks" | "apps" | "skills";

/** Where a symbol comes from; the printer's options turn it into a module specifier. */
export type ModuleRef =
  | { readonly kind: "zod" }
  | { readonly kind: "runtime"; readonly entry: RuntimeEntry }
  /** Another generated file of the same output folder, by name without extension (`types`). */
  | { readonly kind: "sibling"; readonly name: string }
  /** Any other relative module, spelled as given (e.g. a spec's schema.ts from a fidelity file). */
  | { readonly kind: "relative"; readonly specifier: string }
  /** A module of the runtime outside the entry points above, spelled as given (a built-in revision's bindings). */
  | { readonly kind: "runtime-module"; readonly specifier: string };

export interface ImportSymbol {
  /** The exported name, or for a namespace import the local name (`z`, `T`). */
  readonly name: string;
  readonly from: ModuleRef;
  /** `import * as name`. */
  readonly namespace?: boolean;
  /** Exported as a type only: every use is a type use. */
  readonly typeOnly?: boolean;
}

/** A use of a symbol in a type position (`print(typeUse(T), ".Name")`). */
export interface TypeUse {
  readonly typeUse: ImportSymbol;
}

export type Printable = string | ImportSymbol | TypeUse | readonly Printable[];

export interface PrinterOptions {
  /** The specifier of a runtime entry point, as seen from the output folder. */
  readonly runtime: (entry: RuntimeEntry) => string;
  /** Extension of relative imports between generated files (`.js`, `.ts` or ""). */
  readonly siblingExtension: string;
}

export interface Printer {
  /** Records a use of `symbol` (a type use when `asType`, or when the symbol is type-only) and returns its name. */
  use(symbol: ImportSymbol, asType?: boolean): string;
  /** Appends one line made of `parts` (symbols print as their names and are recorded as value uses). */
  print(...parts: Printable[]): void;
  /** The specifier of a sibling generated file (`./types.js`). */
  sibling(name: string): string;
  /** The whole file: header, imports, a blank line, the printed lines. */
  render(header: string): string;
}

export function typeUse(symbol: ImportSymbol): TypeUse {
  return { typeUse: symbol };
}

interface Collected {
  readonly ref: ModuleRef;
  /** Named imports: name → whether some use is a value use. */
  readonly named: Map<string, boolean>;
  /** Namespace import: local name and whether some use is a value use. */
  namespace?: { name: string; value: boolean };
}

const GROUP: Record<ModuleRef["kind"], number> = { zod: 0, runtime: 1, "runtime-module": 1, sibling: 2, relative: 2 };

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The import specifier printed for a module: zod/mini, the runtime entry the options name, a sibling file, as given. */
function specifierOf(ref: ModuleRef, options: PrinterOptions): string {
  switch (ref.kind) {
    case "zod":
      return "zod/mini";
    case "runtime":
      return options.runtime(ref.entry);
    case "sibling":
      return `./${ref.name}${options.siblingExtension}`;
    case "relative":
    case "runtime-module":
      return ref.specifier;
  }
}

/**
 * The import statements of the collected uses, by module: zod, then the runtime, then local files, each group in
 * code-unit order; a name only ever used as a type is imported as a type.
 */
function importStatements(modules: ReadonlyMap<string, Collected>): string[] {
  const ordered = [...modules.entries()].sort(
    ([a, x], [b, y]) => GROUP[x.ref.kind] - GROUP[y.ref.kind] || byCodeUnit(a, b),
  );
  return ordered.flatMap(([from, entry]) => {
    const quoted = JSON.stringify(from);
    const statements: string[] = [];
    if (entry.namespace) {
      const keyword = entry.namespace.value ? "import" : "import type";
      statements.push(`${keyword} * as ${entry.namespace.name} from ${quoted};`);
    }
    if (entry.named.size > 0) {
      const values = [...entry.named]
        .filter(([, v]) => v)
        .map(([n]) => n)
        .sort(byCodeUnit);
      const types = [...entry.named]
        .filter(([, v]) => !v)
        .map(([n]) => n)
        .sort(byCodeUnit);
      statements.push(
        values.length === 0
          ? `import type { ${types.join(", ")} } from ${quoted};`
          : `import { ${[...values, ...types.map((t) => `type ${t}`)].join(", ")} } from ${quoted};`,
      );
    }
    return statements;
  });
}

export function createPrinter(options: PrinterOptions): Printer {
  const modules = new Map<string, Collected>();
  const lines: string[] = [];

  const specifier = (ref: ModuleRef): string => specifierOf(ref, options);

  const use = (symbol: ImportSymbol, asType = false): string => {
    const from = specifier(symbol.from);
    let entry = modules.get(from);
    if (!entry) {
      entry = { ref: symbol.from, named: new Map() };
      modules.set(from, entry);
    }
    const value = !asType && symbol.typeOnly !== true;
    if (symbol.namespace) {
      if (entry.namespace && entry.namespace.name !== symbol.name)
        throw new Error(`two namespace imports of ${from}: ${entry.namespace.name}, ${symbol.name}`);
      entry.namespace = { name: symbol.name, value: value || (entry.namespace?.value ?? false) };
    } else {
      entry.named.set(symbol.name, value || (entry.named.get(symbol.name) ?? false));
    }
    return symbol.name;
  };

  const text = (part: Printable): string => {
    if (typeof part === "string") return part;
    if (Array.isArray(part)) return (part as readonly Printable[]).map(text).join("");
    if ("typeUse" in part) return use(part.typeUse, true);
    return use(part as ImportSymbol);
  };

  return {
    use,
    print: (...parts) => {
      lines.push(parts.map(text).join(""));
    },
    sibling: (name) => specifier({ kind: "sibling", name }),
    render: (header) => {
      const head = importStatements(modules).join("\n");
      return `${header}${head ? `${head}\n\n` : ""}${lines.join("\n")}\n`;
    },
  };
}
