// Placeholder: the model replaces this with the requested application (an untouched scaffold scores 0).
export default function App() {
  return <div />;
}
