import type { GetServerSideProps } from 'next';
import { fetchGreeting } from '../../lib/upstream';

interface Props {
  greeting: string;
}

export const getServerSideProps: GetServerSideProps<Props> = async () => ({ props: { greeting: await fetchGreeting() } });

export default function GsspPage({ greeting }: Props) {
  return <p id="greeting">{greeting}</p>;
}
