/**
 * A device chooser that asks the server: the first page of the devices matching what is typed
 * (name, ID or IP), never the whole site. The alarm filter and the playback picker loaded every
 * device (devicesconfig limit 9999: 750 KB at 1,500 cameras, on every visit) to offer a dropdown
 * the operator searches anyway. When more match than are shown, the last row says so.
 *
 * The page is asked for when the dropdown first opens, not when the picker is drawn: closed it shows
 * only the chosen device's name. Drawn at once, it asked `devices?start=0&limit=50` beside the video
 * tree's same first page on /video/backlist (twice on every visit), and a device from the address was
 * asked for again by its ID while that page was on its way.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Select, Spin, type SelectProps } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeviceRow } from '@opencvr/shared';
import { useDebounced } from '../lib/useDebounced';

/** How many matches the dropdown lists; more is a sign to type. */
export const DEVICE_SELECT_PAGE = 50;

export interface DevicePageAnswer {
  Devices: DeviceRow[];
  TotalCount: number;
}

interface Props extends Omit<SelectProps<string>, 'options' | 'showSearch' | 'filterOption' | 'onSearch' | 'searchValue' | 'onChange' | 'onOpenChange'> {
  value?: string;
  onChange: (device: string) => void;
  /** One page of devices matching q (the page's own call: devices or devicesconfig). */
  fetchPage: (q: string, limit: number) => Promise<DevicePageAnswer>;
  /** Query key prefix: pages with different calls keep apart caches. */
  queryKey: string;
  /** A first option for "no device" (the filter's 全部设备), value ''. */
  emptyOption?: string;
  /**
   * The chosen device by its exact ID (null when the server does not list it to the user). Without
   * it the chosen device is looked for among a search's first page by its ID, which a short ID can
   * miss (its digits are in many names and addresses).
   */
  fetchOne?: (device: string) => Promise<DeviceRow | null>;
  /** Told whether the chosen device is one the server lists to the user, once that is known (needs fetchOne). */
  onResolve?: (found: boolean) => void;
}

const labelOf = (d: DeviceRow) => (d.DeviceName ? `${d.DeviceName} (${d.DeviceID})` : d.DeviceID);

export function DeviceSelect({ value, onChange, fetchPage, fetchOne, queryKey, emptyOption, onResolve, ...rest }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim());
  // Opened once (or typed into): the list is wanted from then on.
  const [wanted, setWanted] = useState(false);
  const page = useQuery({
    queryKey: [queryKey, 'device-select', q],
    queryFn: () => fetchPage(q, DEVICE_SELECT_PAGE),
    enabled: wanted,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  // The chosen device is named by its own row (it may be beyond the first page: opened from an
  // address), unless the list has it.
  const rows = useMemo(() => page.data?.Devices ?? [], [page.data]);
  const listed = rows.find((d) => d.DeviceID === value);
  const chosen = useQuery({
    queryKey: [queryKey, 'device-select', 'chosen', value],
    queryFn: async () => (fetchOne ? await fetchOne(value!) : ((await fetchPage(value!, DEVICE_SELECT_PAGE)).Devices.find((d) => d.DeviceID === value) ?? null)),
    enabled: !!value && !listed && !page.isFetching,
    staleTime: 30_000,
  });

  const found = !value || !fetchOne ? undefined : listed ? true : chosen.data === undefined ? undefined : chosen.data !== null;
  const resolveRef = useRef(onResolve);
  useEffect(() => {
    resolveRef.current = onResolve;
  });
  useEffect(() => {
    if (found !== undefined) resolveRef.current?.(found);
  }, [found, value]);

  const options = useMemo(() => {
    const list: { value: string; label: string; disabled?: boolean }[] = [];
    if (emptyOption !== undefined && !q) list.push({ value: '', label: emptyOption });
    list.push(...rows.map((d) => ({ value: d.DeviceID, label: labelOf(d) })));
    if (value && !listed) list.push({ value, label: chosen.data ? labelOf(chosen.data) : value });
    const more = (page.data?.TotalCount ?? 0) - rows.length;
    if (more > 0) list.push({ value: '\u0000more', label: t('devices.picker.narrow', { count: more }), disabled: true });
    return list;
  }, [emptyOption, q, rows, value, listed, chosen.data, page.data?.TotalCount, t]);

  return (
    <Select<string>
      {...rest}
      showSearch
      filterOption={false}
      // A page of 50 rows renders at once, so the last row (how many more) is there to read.
      virtual={false}
      searchValue={search}
      onOpenChange={(open) => {
        if (open) setWanted(true);
      }}
      onSearch={(text) => {
        setWanted(true);
        setSearch(text);
      }}
      onChange={(v) => {
        setSearch('');
        onChange(v);
      }}
      value={value}
      loading={page.isFetching || chosen.isFetching}
      // Opened for the first time, the list is on its way: not "no data".
      notFoundContent={page.isFetching && !rows.length ? <Spin size="small" /> : undefined}
      options={options}
    />
  );
}
