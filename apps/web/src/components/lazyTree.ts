/**
 * Lazily loaded, paged trees (video sidebar, channel pickers): children are fetched when a node is
 * expanded (antd Tree loadData), a page at a time, with a "load more" entry while some are left.
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';

export interface LazyItem<T> {
  key: string;
  data: T;
  leaf: boolean;
}
export interface LazyPage<T> {
  items: LazyItem<T>[];
  total: number;
}
/**
 * Loads one page of `parent`'s children (null: the top level) from `start`; `quiet` for the reads
 * the user did not ask for (a refresh): their failures pass without a notice.
 */
export type LazyLoader<T> = (parent: T | null, start: number, quiet?: boolean) => Promise<LazyPage<T>>;

export const ROOT_KEY = '';
export const MORE_SUFFIX = '::more';

export interface LazyTreeNode<T> {
  key: string;
  title: ReactNode;
  isLeaf: boolean;
  data?: T;
  /** Set on "load more" entries: the key of the parent whose next page they fetch. */
  moreOf?: string;
  children?: LazyTreeNode<T>[];
  checkable?: boolean;
  disableCheckbox?: boolean;
  selectable?: boolean;
}

interface Level<T> {
  items: LazyItem<T>[];
  total: number;
}

/** The levels still reachable from the top through loaded rows (a row that went takes its levels along). */
function pruned<T>(levels: Map<string, Level<T>>): Map<string, Level<T>> {
  const kept = new Map<string, Level<T>>();
  const walk = (key: string) => {
    const level = levels.get(key);
    if (!level || kept.has(key)) return;
    kept.set(key, level);
    for (const item of level.items) if (!item.leaf) walk(item.key);
  };
  walk(ROOT_KEY);
  return kept.size === levels.size ? levels : kept;
}

/** `initialRoot`: the top level when it is already known at the first render (read once). */
export function useLazyTree<T>(load: LazyLoader<T>, initialRoot?: LazyPage<T>) {
  const [levels, setLevels] = useState<Map<string, Level<T>>>(() => new Map(initialRoot ? [[ROOT_KEY, initialRoot]] : []));
  const parents = useRef(new Map<string, T | null>([[ROOT_KEY, null]]));
  const generation = useRef(0);
  // Bumped on reset: the Tree is remounted with it as key so antd forgets which nodes it loaded.
  const [version, setVersion] = useState(0);

  const fetchPage = useCallback(
    async (key: string, parent: T | null, start: number) => {
      const gen = generation.current;
      parents.current.set(key, parent);
      const page = await load(parent, start);
      // A reset while loading makes this answer stale.
      if (gen !== generation.current) return;
      setLevels((prev) => {
        const next = new Map(prev);
        const before = start > 0 ? (prev.get(key)?.items ?? []) : [];
        next.set(key, { items: [...before, ...page.items], total: page.total });
        return next;
      });
    },
    [load],
  );

  const loadChildren = useCallback((key: string, parent: T | null) => fetchPage(key, parent, 0), [fetchPage]);
  const loadMore = useCallback(
    (key: string) => fetchPage(key, parents.current.get(key) ?? null, levels.get(key)?.items.length ?? 0),
    [fetchPage, levels],
  );
  /** Fetches a loaded level again from its start (after a change inside it). */
  const reloadLevel = useCallback(
    async (key: string, parent?: T | null) => {
      if (parent !== undefined) parents.current.set(key, parent);
      if (!parents.current.has(key)) return;
      await fetchPage(key, parents.current.get(key) ?? null, 0);
    },
    [fetchPage],
  );
  /**
   * Fetches again every loaded level whose key passes `which`, as far as it was loaded (its "load
   * more" pages too), keeping the levels below: the tree stays as expanded, with fresh rows. Top
   * down: a level is read after the one above it, and only while its row is still there; the levels
   * under a row that went (deleted elsewhere) are dropped, not asked for. Quiet: nobody asked.
   * A failed level keeps its rows; the first failure is thrown once the others are in.
   */
  const levelsRef = useRef(levels);
  levelsRef.current = levels;
  const refresh = useCallback(
    async (which: (key: string) => boolean) => {
      const gen = generation.current;
      let failure: unknown;
      const visit = async (key: string): Promise<void> => {
        let level = levelsRef.current.get(key);
        if (!level || !parents.current.has(key)) return;
        if (which(key)) {
          try {
            const parent = parents.current.get(key) ?? null;
            const had = level.items.length;
            const items: LazyItem<T>[] = [];
            let total = 0;
            do {
              const page = await load(parent, items.length, true);
              items.push(...page.items);
              total = page.total;
              if (!page.items.length) break;
            } while (items.length < Math.min(had, total));
            if (gen !== generation.current) return;
            level = { items, total };
            const fresh = level;
            setLevels((prev) => pruned(new Map(prev).set(key, fresh)));
          } catch (err) {
            failure ??= err;
          }
        }
        await Promise.all(
          level.items
            .filter((item) => !item.leaf && levelsRef.current.has(item.key))
            .map((item) => {
              parents.current.set(item.key, item.data);
              return visit(item.key);
            }),
        );
      };
      await visit(ROOT_KEY);
      if (failure !== undefined) throw failure;
    },
    [load],
  );
  const reset = useCallback(() => {
    generation.current += 1;
    parents.current = new Map([[ROOT_KEY, null]]);
    setLevels(new Map());
    setVersion((v) => v + 1);
  }, []);

  /** antd treeData for the loaded part of the tree. */
  const build = useCallback(
    (render: (item: LazyItem<T>) => Omit<LazyTreeNode<T>, 'key' | 'isLeaf' | 'data' | 'children'>, moreTitle: ReactNode): LazyTreeNode<T>[] => {
      const walk = (key: string): LazyTreeNode<T>[] | undefined => {
        const level = levels.get(key);
        if (!level) return undefined;
        const nodes: LazyTreeNode<T>[] = level.items.map((item) => ({
          ...render(item),
          key: item.key,
          isLeaf: item.leaf,
          data: item.data,
          children: item.leaf ? undefined : walk(item.key),
        }));
        if (level.items.length < level.total) {
          nodes.push({ key: `${key}${MORE_SUFFIX}`, title: moreTitle, isLeaf: true, moreOf: key, checkable: false });
        }
        return nodes;
      };
      return walk(ROOT_KEY) ?? [];
    },
    [levels],
  );

  return { levels, version, loadChildren, loadMore, reloadLevel, refresh, reset, build };
}
