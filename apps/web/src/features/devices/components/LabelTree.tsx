/**
 * The group (label) tree of /device/group: levels load on expand (labellist by parentid); add,
 * rename, move and delete (with confirmation) act on the selected group.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button, Empty, Popconfirm, Space, Spin, Tooltip, Tree } from 'antd';
import { DeleteOutlined, DragOutlined, EditOutlined, FolderAddOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { LabelRow } from '@opencvr/shared';
import { msg } from '../../../i18n';
import { notify } from '../../../lib/notify';
import { labelTitle } from '../../../components/labelTree';
import { useLazyTree, type LazyLoader, type LazyTreeNode } from '../../../components/lazyTree';
import { addLabel, deleteLabel, fetchLabels, moveLabel, renameLabel } from '../api';
import { LabelMoveModal } from './LabelMoveModal';
import { LabelNameModal } from './LabelNameModal';

const keyOf = (id: number) => (id ? `l:${id}` : '');

interface Props {
  selected: LabelRow | null;
  onSelect: (label: LabelRow | null) => void;
}

export function LabelTree({ selected, onSelect }: Props) {
  const { t } = useTranslation();
  const load = useCallback<LazyLoader<LabelRow>>(async (parent) => {
    const { Labels } = await fetchLabels(parent?.ID ?? 0);
    return { items: Labels.map((l) => ({ key: keyOf(l.ID), data: l, leaf: l.ChildNum === 0 })), total: Labels.length };
  }, []);
  const tree = useLazyTree(load);
  const { loadChildren, reloadLevel, reset } = tree;
  const [loading, setLoading] = useState(true);
  const [naming, setNaming] = useState<{ mode: 'root' | 'child' | 'rename' } | null>(null);
  // A new name dialog for every opening: the reused one started with the loading OK button of a save still
  // running, or with its loading icon stuck in its leave motion when closed mid-transition.
  const [namingKey, setNamingKey] = useState(0);
  const [moving, setMoving] = useState<LabelRow | null>(null);
  // The move dialog too.
  const [movingKey, setMovingKey] = useState(0);
  // The openings shown now: a save or move of an earlier opening that ends after the next one opened still
  // refreshes the tree, but must not close the next dialog nor select for the earlier one.
  const shown = useRef({ namingKey, movingKey });
  useLayoutEffect(() => {
    shown.current = { namingKey, movingKey };
  }, [namingKey, movingKey]);

  const reloadRoot = useCallback(() => {
    reset();
    setLoading(true);
    loadChildren('', null)
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [reset, loadChildren]);
  useEffect(reloadRoot, [reloadRoot]);

  /** Refreshes the level holding `label` (its name or child count changed). */
  const reloadAround = async (label: LabelRow) => {
    await reloadLevel(keyOf(label.ParentID));
  };

  const run = async (work: () => Promise<unknown>, text = msg('success')) => {
    try {
      await work();
      notify.success(text);
      return true;
    } catch {
      return false; // shown by the request layer
    }
  };

  const openNaming = (mode: 'root' | 'child' | 'rename') => {
    setNaming({ mode });
    setNamingKey((k) => k + 1);
  };

  const openMoving = () => {
    setMoving(selected);
    setMovingKey((k) => k + 1);
  };

  const saveName = async (name: string) => {
    const mode = naming?.mode;
    const current = () => shown.current.namingKey === namingKey;
    const ok = await run(async () => {
      if (mode === 'rename' && selected) {
        await renameLabel(selected.ID, name);
        await reloadAround(selected);
        if (current()) onSelect({ ...selected, Name: name });
      } else if (mode === 'child' && selected) {
        await addLabel(name, selected.ID);
        await reloadAround(selected);
        await reloadLevel(keyOf(selected.ID), selected);
      } else {
        await addLabel(name, 0);
        await reloadLevel('');
      }
    }, mode === 'rename' ? msg('saved') : msg('success'));
    if (ok && current()) setNaming(null);
  };

  const remove = async () => {
    if (!selected) return;
    const label = selected;
    if (await run(async () => deleteLabel(label.ID))) {
      onSelect(null);
      // The parent's child count changed too: start again from the top.
      reloadRoot();
    }
  };

  const move = async (parentid: number) => {
    if (!moving) return;
    const id = moving.ID;
    if (await run(async () => moveLabel(id, parentid))) {
      if (shown.current.movingKey === movingKey) {
        setMoving(null);
        onSelect(null);
      }
      reloadRoot();
    }
  };

  const treeData = tree.build((item) => ({ title: labelTitle(item.data) }), null);

  return (
    <>
      <Space wrap style={{ marginBottom: 8 }}>
        <Button size="small" icon={<PlusOutlined />} onClick={() => openNaming('root')}>
          {t('devices.group.addRoot')}
        </Button>
        <Tooltip title={t('devices.group.addChild')}>
          <Button size="small" icon={<FolderAddOutlined />} disabled={!selected} onClick={() => openNaming('child')} aria-label={t('devices.group.addChild')} />
        </Tooltip>
        <Tooltip title={t('devices.group.rename')}>
          <Button size="small" icon={<EditOutlined />} disabled={!selected} onClick={() => openNaming('rename')} aria-label={t('devices.group.rename')} />
        </Tooltip>
        <Tooltip title={t('devices.group.move')}>
          <Button size="small" icon={<DragOutlined />} disabled={!selected} onClick={openMoving} aria-label={t('devices.group.move')} />
        </Tooltip>
        <Popconfirm title={t('devices.group.deleteConfirm', { name: selected?.Name ?? '' })} onConfirm={remove} disabled={!selected}>
          <Button size="small" danger icon={<DeleteOutlined />} disabled={!selected} aria-label={t('common.delete')} />
        </Popconfirm>
      </Space>
      <Spin spinning={loading}>
        {treeData.length ? (
          <Tree<LazyTreeNode<LabelRow>>
            key={tree.version}
            blockNode
            showLine
            treeData={treeData}
            selectedKeys={selected ? [keyOf(selected.ID)] : []}
            loadData={async (node) => {
              if (node.data) await loadChildren(node.key, node.data);
            }}
            onSelect={(_, info) => onSelect(info.selected ? (info.node.data ?? null) : null)}
          />
        ) : (
          !loading && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('devices.group.empty')} />
        )}
      </Spin>
      <LabelNameModal
        key={`name-${namingKey}`}
        open={!!naming}
        title={naming?.mode === 'rename' ? t('devices.group.rename') : naming?.mode === 'child' ? t('devices.group.addChild') : t('devices.group.addRoot')}
        initial={naming?.mode === 'rename' ? selected?.Name : ''}
        onCancel={() => setNaming(null)}
        onOk={saveName}
      />
      <LabelMoveModal key={`move-${movingKey}`} label={moving} onCancel={() => setMoving(null)} onOk={move} />
    </>
  );
}
