/** The device pages' breadcrumb: renders deviceCrumbs() and applies each crumb's effect on the trail. */
import { useEffect } from 'react';
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { deviceCrumbs, trailAfterRoute } from '../breadcrumb';
import { useSubChannels } from '../subChannelStore';

export function DeviceBreadcrumb() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const trail = useSubChannels((s) => s.trail);
  const apply = useSubChannels((s) => s.apply);
  const clear = useSubChannels((s) => s.clear);

  // Leaving the device pages drops the trail. The cleanup runs after the router has moved, so the
  // browser location already names the next page.
  useEffect(
    () => () => {
      if (trailAfterRoute(window.location.pathname, useSubChannels.getState().trail).length === 0) clear();
    },
    [clear],
  );

  const crumbs = deviceCrumbs(
    pathname,
    { deviceName: params.get('deviceName'), deviceType: params.get('deviceType'), channelName: params.get('channelName') },
    trail,
  );

  return (
    <Breadcrumb
      style={{ marginBottom: 12 }}
      items={crumbs.map((c) => {
        const text = c.label ? (c.name ? `${t(`devices.crumb.${c.label}`)}(${c.name})` : t(`devices.crumb.${c.label}`)) : (c.name ?? '');
        return {
          key: c.key,
          title: c.to ? (
            <Link to={c.to} onClick={() => apply(c.effect)} data-crumb={c.key}>
              {text}
            </Link>
          ) : (
            <span data-crumb={c.key}>{text}</span>
          ),
        };
      })}
    />
  );
}
