export default function Home() {
  return <p>ok</p>;
}
