/**
 * Spec 2 "route metadata may mark a page as keep-alive": a flagged page keeps its state when the user
 * leaves it and comes back (its effects stop while it is hidden and run again on return, it keeps its
 * own route parameters and its scroll position); other pages start afresh. The flag is on the square,
 * the multi-screen wall and the device list.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { MemoryRouter, Route, Routes, useNavigate, useParams, type NavigateFunction } from 'react-router-dom';
import { KeepAliveOutlet } from '../src/app/layout/KeepAliveOutlet';
import { keepAliveKey } from '../src/app/routes';

const effects: string[] = [];
let go: NavigateFunction = () => {};

function Nav() {
  go = useNavigate();
  return null;
}

/** A page with state of its own (a count) and an effect that says when it runs and stops. */
function Page({ name }: { name: string }) {
  const { id = '' } = useParams();
  const [count, setCount] = useState(0);
  useEffect(() => {
    effects.push(`${name} start ${id}`);
    return () => void effects.push(`${name} stop ${id}`);
  }, [name, id]);
  return (
    <div data-testid={name}>
      <span data-testid={`${name}-id`}>{id}</span>
      <button onClick={() => setCount((c) => c + 1)}>{`${name} ${count}`}</button>
    </div>
  );
}

const keyOf = (pathname: string) => (pathname.startsWith('/kept/') ? '/kept/:id' : undefined);

function renderAt(path: string) {
  effects.length = 0;
  render(
    <MemoryRouter initialEntries={[path]}>
      <Nav />
      <Routes>
        <Route element={<KeepAliveOutlet keyOf={keyOf} />}>
          <Route path="/kept/:id" element={<Page name="kept" />} />
          <Route path="/other/:id" element={<Page name="other" />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

const navigate = (to: string) => act(() => void go(to));
const click = (name: string, times: number) => {
  for (let i = 0; i < times; i++) fireEvent.click(screen.getByRole('button', { name: new RegExp(`^${name} `) }));
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('keep-alive outlet', () => {
  it('a kept page is hidden, not unmounted, when the user leaves, and shows its state on return', () => {
    renderAt('/kept/1');
    click('kept', 3);
    navigate('/other/1');
    expect(screen.getByTestId('kept')).not.toBeVisible();
    expect(screen.getByTestId('other')).toBeVisible();
    navigate('/kept/1');
    expect(screen.getByTestId('kept')).toBeVisible();
    expect(screen.getByRole('button', { name: 'kept 3' })).toBeInTheDocument();
    expect(screen.queryByTestId('other')).toBeNull();
  });

  it('a page without the flag starts afresh', () => {
    renderAt('/other/1');
    click('other', 2);
    navigate('/kept/1');
    navigate('/other/1');
    expect(screen.getByRole('button', { name: 'other 0' })).toBeInTheDocument();
  });

  it('a hidden page’s effects stop, and run again when it shows', () => {
    renderAt('/kept/1');
    expect(effects).toEqual(['kept start 1']);
    navigate('/other/1');
    expect(effects).toEqual(['kept start 1', 'kept stop 1', 'other start 1']);
    navigate('/kept/1');
    expect(effects.slice(3)).toEqual(['other stop 1', 'kept start 1']);
  });

  it('a hidden page keeps its own parameters; new parameters of its route reuse it', () => {
    renderAt('/kept/1');
    click('kept', 2);
    navigate('/other/9');
    expect(screen.getByTestId('kept-id')).toHaveTextContent('1');
    expect(screen.getByTestId('other-id')).toHaveTextContent('9');
    navigate('/kept/2');
    expect(screen.getByTestId('kept-id')).toHaveTextContent('2');
    expect(screen.getByRole('button', { name: 'kept 2' })).toBeInTheDocument();
  });

  it('puts the window back where it was on the kept page', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const scrollY = vi.spyOn(window, 'scrollY', 'get');
    renderAt('/kept/1');
    scrollY.mockReturnValue(640);
    fireEvent.scroll(window);
    scrollY.mockReturnValue(0);
    navigate('/other/1');
    expect(scrollTo).not.toHaveBeenCalled();
    navigate('/kept/1');
    expect(scrollTo).toHaveBeenCalledWith(0, 640);
  });
});

describe('keep-alive routes', () => {
  it('the square, the wall and the device list are kept, one instance per route; other pages are not', () => {
    expect(keepAliveKey('/video/square/0')).toBe('/video/square/:devid');
    expect(keepAliveKey('/video/square/34020000001320000001')).toBe('/video/square/:devid');
    expect(keepAliveKey('/video/browse')).toBe('/video/browse');
    expect(keepAliveKey('/device/list')).toBe('/device/list');
    for (const path of ['/device/form/1', '/video/player/1/1/main', '/user/index', '/login', '/no/such/page'])
      expect(keepAliveKey(path)).toBeUndefined();
  });
});
