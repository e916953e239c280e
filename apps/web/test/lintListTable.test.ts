/**
 * The repo's lint rule that keeps list pages on ListTable (eslint.config.js): antd's Table imported
 * in the console's source fails lint, its types do not, and ListTable itself may import it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: ROOT });

/** The rule ids that `code` breaks as the file `file` (repo-relative). */
async function broken(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

const RULE = '@typescript-eslint/no-restricted-imports';

describe('lint: list tables go through ListTable', { timeout: 60_000 }, () => {
  it("refuses antd's Table in a page, from antd or its table module", async () => {
    expect(await broken('apps/web/src/features/users/pages/NewList.tsx', "import { Table } from 'antd';\nexport const T = Table;\n")).toContain(RULE);
    expect(await broken('apps/web/src/features/users/pages/NewList.tsx', "import Table from 'antd/es/table';\nexport const T = Table;\n")).toContain(RULE);
  });

  it('lets a page import the table types and ListTable, and ListTable import antd', async () => {
    expect(await broken('apps/web/src/features/users/pages/NewList.tsx', "import type { TableProps } from 'antd';\nimport type { ColumnsType } from 'antd/es/table';\nexport type T = TableProps<object> | ColumnsType<object>;\n")).not.toContain(RULE);
    expect(await broken('apps/web/src/components/ListTable.tsx', "import { Table } from 'antd';\nexport const T = Table;\n")).not.toContain(RULE);
  });
});
