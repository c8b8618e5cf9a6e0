import Testing

@Test func greetsByName() {
    #expect(Greeter(name: "Ada").greeting(with: "Hallo") == "Hallo, Ada!")
}
