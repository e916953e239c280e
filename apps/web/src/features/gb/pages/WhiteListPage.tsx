/** /config/white: the GB28181 registration whitelist and its switch. */
import { GbListPage } from './GbListPage';

export default function WhiteListPage() {
  return <GbListPage kind="white" />;
}
