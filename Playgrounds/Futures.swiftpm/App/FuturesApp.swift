#if canImport(SwiftUI)
    import SwiftUI

    /// The app the Swift Playgrounds app and Xcode run: a list of chapters, one screen each.
    @main
    struct FuturesApp: App {
        var body: some Scene {
            WindowGroup {
                ChapterList()
            }
        }
    }

    /// Every chapter, in reading order.
    struct ChapterList: View {
        var body: some View {
            NavigationStack {
                List(allChapters.indices, id: \.self) { index in
                    NavigationLink {
                        ChapterScreen(chapter: allChapters[index])
                    } label: {
                        VStack(alignment: .leading, spacing: 4) {
                            Text(allChapters[index].title).font(.headline)
                            Text(allChapters[index].summary).font(.caption).foregroundStyle(.secondary)
                        }
                    }
                }
                .navigationTitle("Futures")
            }
        }
    }
#endif
