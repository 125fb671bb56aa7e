// The value imports of a source file, read from its syntax (TypeScript's parser, no type check).
// `import type` / `export type` are erased when Node strips types, so they are no edge at run time
// and are left out; so is an import whose every specifier is `type` (lint turns those into
// `import type`). Side-effect imports, `export … from` and dynamic `import('…')` are edges.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export type ImportEdge = { specifier: string; resolved: string | null };

function isValueImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return true;
  if (clause.isTypeOnly) return false;
  if (clause.name) return true;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return true;
  return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly);
}

/** Module specifiers a file imports for values, in source order. */
export function valueSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (isValueImport(node)) found.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) found.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** A relative specifier resolved to an existing file (explicit extension, or .ts/.tsx/index.ts). */
export function resolveRelative(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return null;
}

/** The value imports of a file on disk, relative ones resolved to absolute paths. */
export function valueImportsOf(file: string): ImportEdge[] {
  const text = fs.readFileSync(file, 'utf8');
  return valueSpecifiers(file, text).map((specifier) => ({
    specifier,
    resolved: resolveRelative(file, specifier),
  }));
}

/** Every .ts/.tsx file under a folder (recursive), as absolute paths. */
export function sourceFilesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}
