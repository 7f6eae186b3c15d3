import ts from 'typescript';
import { relative, resolve } from 'node:path';

/**
 * Promises the code drops or mistakes for values, found with the type checker: the state store is asynchronous,
 * and a statement whose promise nobody awaits runs out of order and loses its error, while tsc accepts it. No
 * kept linter is installed here (typescript-eslint's `no-floating-promises` and `no-misused-promises` are the
 * rules this follows), so this is the few checks that matter, on the project's own program.
 *
 * - a promise as a statement of its own, neither awaited, returned nor marked `void`;
 * - an async callback where a boolean is asked (`find`, `filter`, `some`, `every`: a promise is always truthy) or
 *   where its result is thrown away (`forEach`);
 * - a promise negated with `!`, or as the condition of `if`, `while` or `?:`.
 */
export interface MisusedPromise {
  where: string;
  what: string;
}

/** node:test's own: they run what they are given and report it themselves. */
const TEST_RUNNER_CALLS = new Set(['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach']);

/** A chain that ends in a rejection handler (`.catch(f)`, `.then(f, g)`) handles what it drops. */
function handled(call: ts.CallExpression): boolean {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return TEST_RUNNER_CALLS.has(callee.text);
  if (!ts.isPropertyAccessExpression(callee)) return false;
  if (ts.isIdentifier(callee.expression) && TEST_RUNNER_CALLS.has(callee.expression.text)) return true;
  if (callee.name.text === 'catch' || (callee.name.text === 'then' && call.arguments.length === 2)) return true;
  return callee.name.text === 'finally' && ts.isCallExpression(callee.expression) && handled(callee.expression);
}

const TRUTHY_CALLBACKS = new Set(['find', 'findIndex', 'findLast', 'findLastIndex', 'filter', 'some', 'every', 'forEach']);

export function misusedPromises(root: string): MisusedPromise[] {
  const config = ts.readConfigFile(resolve(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  const checker = program.getTypeChecker();
  const found: MisusedPromise[] = [];
  // A promise for sure: a promise or a union of promises, not a memo that may still be unset (`Promise | undefined`).
  const isPromise = (node: ts.Node): boolean => {
    const type = checker.getTypeAtLocation(node);
    return (type.isUnion() ? type.types : [type]).every((part) => part.getProperty('then') !== undefined && checker.getAwaitedType(part) !== part);
  };
  const report = (node: ts.Node, what: string) => {
    const file = node.getSourceFile();
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    found.push({ where: `${relative(root, file.fileName)}:${line}`, what });
  };
  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || !file.fileName.startsWith(root) || file.fileName.includes('/node_modules/')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isExpressionStatement(node) && !ts.isVoidExpression(node.expression) && !ts.isAwaitExpression(node.expression) && ts.isCallExpression(node.expression) && !handled(node.expression) && isPromise(node.expression)) {
        report(node, `a promise nobody awaits: ${node.expression.getText().slice(0, 80)}`);
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && TRUTHY_CALLBACKS.has(node.expression.name.text)) {
        const callback = node.arguments[0];
        if (callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) && callback.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) {
          report(node, `an async callback given to ${node.expression.name.text}, which does not wait for it`);
        }
      }
      if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken && isPromise(node.operand)) report(node, 'a promise negated: always false');
      if ((ts.isIfStatement(node) || ts.isWhileStatement(node)) && isPromise(node.expression)) report(node, 'a promise as a condition: always true');
      if (ts.isConditionalExpression(node) && isPromise(node.condition)) report(node, 'a promise as a condition: always true');
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

if (import.meta.main) {
  const found = misusedPromises(process.cwd());
  for (const { where, what } of found) console.log(`${where}  ${what}`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
