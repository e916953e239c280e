/**
 * A list page's toolbar (components/ListToolbar.tsx) as the unit tests see it: jsdom's matchMedia
 * answers false, so the phone layout, whose filters and secondary actions open from two buttons.
 */
import { fireEvent, screen } from '@testing-library/react';

/** Shows the filters (the toolbar's 筛选 toggle). */
export const openFilters = () => fireEvent.click(screen.getByRole('button', { name: '筛选' }));

/** Opens the secondary actions (batch delete, clear) in the 更多操作 popup. */
export const openMoreActions = () => fireEvent.click(screen.getByRole('button', { name: '更多操作' }));
