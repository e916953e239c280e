/**
 * Pages reached from the search-all site map with ?action=add open their add form once, then drop
 * the parameter so a reload or back does not open it again.
 */
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';

export function useAddAction(openAdd: () => void) {
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    if (params.get('action') !== 'add') return;
    openAdd();
    params.delete('action');
    setParams(params, { replace: true });
    // openAdd is a fresh closure each render; the parameter is what triggers this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params, setParams]);
}
