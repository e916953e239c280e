/** /config/black: the GB28181 registration blacklist. */
import { GbListPage } from './GbListPage';

export default function BlackListPage() {
  return <GbListPage kind="black" />;
}
