/** The plans list and delete, shared by /config/recording and /config/program. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { msg } from '../../i18n';
import { notify } from '../../lib/notify';
import { deletePlan, fetchPlans, type PlanSummary } from './api';

export function usePlans(page: number, q = '') {
  const list = useQuery({ queryKey: ['recordplans', page, q], queryFn: () => fetchPlans({ start: (page - 1) * 20, limit: 20, q }), placeholderData: keepPreviousData });
  const remove = async (p: PlanSummary) => {
    try {
      await deletePlan(p.ID);
      notify.success(msg('success'));
      void list.refetch();
    } catch {
      /* the request layer said why */
    }
  };
  return { list, remove };
}
